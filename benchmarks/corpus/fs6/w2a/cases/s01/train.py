import torch

from adapters import inject_adapters, mark_trainable, trainable_summary
from model import TinyLM

CFG = {
    "model": dict(vocab_size=256, dim=64, heads=4, layers=2, max_len=64),
    "lora": dict(target_modules=("q_proj", "v_proj"), r=8, alpha=16, dropout=0.0),
    "modules_to_save": ("lm_head",),
    "gradient_checkpointing": True,
    "gradient_checkpointing_kwargs": {"use_reentrant": True},
    "lr": 1e-3,
    "steps": 4,
    "batch_size": 4,
    "seq_len": 16,
    "alpha": 1.0,
}


def build_model(cfg):
    model = TinyLM(**cfg["model"])
    inject_adapters(model, **cfg["lora"])
    mark_trainable(model, cfg["modules_to_save"])
    if cfg["gradient_checkpointing"]:
        model.enable_checkpointing(**cfg["gradient_checkpointing_kwargs"])
    return model


def sample_batch(cfg, vocab):
    ids = torch.randint(0, vocab, (cfg["batch_size"], cfg["seq_len"]))
    return {"input_ids": ids, "labels": ids.clone()}


def grad_diff_loss(model, forget, retain, alpha):
    forget_loss = model(**forget)
    retain_loss = model(**retain)
    return -forget_loss + alpha * retain_loss, forget_loss, retain_loss


class UnlearnTrainer:
    def __init__(self, model, cfg):
        self.model = model
        self.cfg = cfg
        params = [p for p in model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(params, lr=cfg["lr"])

    def train(self):
        vocab = self.cfg["model"]["vocab_size"]
        self.model.train()
        for step in range(self.cfg["steps"]):
            forget, retain = sample_batch(self.cfg, vocab), sample_batch(self.cfg, vocab)
            loss, fl, rl = grad_diff_loss(self.model, forget, retain, self.cfg["alpha"])
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad(set_to_none=True)
            print(f"step {step} loss {loss.item():.4f} forget {fl.item():.4f} retain {rl.item():.4f}")


def main():
    torch.manual_seed(0)
    model = build_model(CFG)
    print(trainable_summary(model))
    trainer = UnlearnTrainer(model, CFG)
    trainer.train()
    return model


if __name__ == "__main__":
    model = main()
