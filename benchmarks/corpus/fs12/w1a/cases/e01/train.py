import torch

from model import TinyCausalLM, add_lora
from trainer import Trainer

training_args = {
    "learning_rate": 3e-4,
    "weight_decay": 0.0,
    "num_train_epochs": 2,
    "gradient_accumulation_steps": 2,
    "logging_steps": 2,
    "gradient_checkpointing": True,
    "gradient_checkpointing_kwargs": None,
}


def make_batches(n, batch_size=8, seq_len=32, vocab=256):
    g = torch.Generator().manual_seed(0)
    return [{"input_ids": torch.randint(0, vocab, (batch_size, seq_len), generator=g)} for _ in range(n)]


def main():
    torch.manual_seed(0)
    model = TinyCausalLM()
    for p in model.parameters():
        p.requires_grad_(False)
    add_lora(model, r=4)
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    n_train = sum(p.numel() for p in model.parameters() if p.requires_grad)
    print(f"trainable params: {n_train}")
    trainer = Trainer(model, training_args, make_batches(8))
    trainer.train()


if __name__ == "__main__":
    main()
