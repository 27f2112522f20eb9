import torch
import torch.nn.functional as F

from model import MMFTransformer

CONFIG = {
    "model": {
        "backbone": {
            "vocab_size": 200,
            "hidden_size": 32,
            "num_hidden_layers": 2,
            "num_attention_heads": 4,
            "intermediate_size": 64,
            "max_position_embeddings": 64,
        },
        "image_feature_dim": 24,
        "num_labels": 3,
        "classifier_dropout": 0.1,
        "head_type": "classification",
        "finetune_lr_multiplier": 0.1,
    },
    "optimizer": {"lr": 5e-4, "eps": 1e-8, "weight_decay": 0.01},
    "training": {"max_updates": 6, "batch_size": 8, "seed": 1},
}

MODEL_REGISTRY = {"mmf_transformer": MMFTransformer}


def build_model(name, config):
    return MODEL_REGISTRY[name](config["model"])


def build_optimizer(model, config):
    params = model.get_optimizer_parameters(config["optimizer"])
    return torch.optim.AdamW(params, lr=config["optimizer"]["lr"], eps=config["optimizer"]["eps"],
                             weight_decay=config["optimizer"]["weight_decay"])


def get_batch(config, generator):
    bs = config["training"]["batch_size"]
    seq, n_img = 12, 4
    return {
        "input_ids": torch.randint(1, config["model"]["backbone"]["vocab_size"], (bs, seq), generator=generator),
        "segment_ids": torch.zeros(bs, seq, dtype=torch.long),
        "input_mask": torch.ones(bs, seq, dtype=torch.long),
        "image_feature": torch.randn(bs, n_img, config["model"]["image_feature_dim"], generator=generator),
        "targets": torch.randint(0, config["model"]["num_labels"], (bs,), generator=generator),
    }


class Trainer:
    def __init__(self, config):
        self.config = config
        torch.manual_seed(config["training"]["seed"])
        self.model = build_model("mmf_transformer", config)
        self.optimizer = build_optimizer(self.model, config)
        self.generator = torch.Generator().manual_seed(config["training"]["seed"])

    def _forward_backward(self, batch):
        output = self.model(batch)
        loss = F.cross_entropy(output["scores"], batch["targets"])
        loss.backward()
        return loss.detach()

    def train(self):
        self.model.train()
        for update in range(self.config["training"]["max_updates"]):
            batch = get_batch(self.config, self.generator)
            self.optimizer.zero_grad(set_to_none=True)
            loss = self._forward_backward(batch)
            self.optimizer.step()
            print("update %d loss %.4f" % (update + 1, loss.item()))


if __name__ == "__main__":
    trainer = Trainer(CONFIG)
    trainer.train()
    model = trainer.model
