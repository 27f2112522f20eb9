import compat  # noqa: F401
import torch
from transformers import BertConfig

from modeling import BertForTagging
from trainer import GradualUnfreezeTrainer

PAD_ID = 0


def make_batch(vocab_size, num_labels, bsz=8, seq=16):
    input_ids = torch.randint(1, vocab_size, (bsz, seq))
    lengths = torch.randint(seq // 2, seq + 1, (bsz,))
    mask = (torch.arange(seq)[None, :] < lengths[:, None]).long()
    input_ids[mask == 0] = PAD_ID
    labels = torch.randint(0, num_labels, (bsz, seq))
    labels[mask == 0] = -100
    return {"input_ids": input_ids, "attention_mask": mask, "labels": labels}


def main():
    torch.manual_seed(0)
    config = BertConfig(vocab_size=200, hidden_size=32, num_hidden_layers=3, num_attention_heads=4,
                        intermediate_size=64, max_position_embeddings=32)
    model = BertForTagging(config, num_labels=5)
    trainer = GradualUnfreezeTrainer(model, base_lr=3e-4, decay=0.5, unfreeze_every=3)
    for step in range(12):
        loss = trainer.step(make_batch(config.vocab_size, 5), step)
        if step % 3 == 0:
            print(f"step {step:2d} loss {loss:.4f} groups {len(trainer.optimizer.param_groups)}")
    return model, trainer


if __name__ == "__main__":
    model, trainer = main()
