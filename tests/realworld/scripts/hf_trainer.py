"""transformers' Trainer fine-tuning a tiny random RobertaForSequenceClassification on a
synthetic torch Dataset (max_steps=4, no saving, no reporting, no progress bars). Trainer's
own PrinterCallback prints timings, so a small callback prints the (deterministic) losses."""

import _cpu_torchvision  # noqa: F401  (see that module: torchvision's CUDA wheel on a CPU torch)

import tempfile

import torch
from torch.utils.data import Dataset
from transformers import (PrinterCallback, RobertaConfig, RobertaForSequenceClassification, Trainer,
                          TrainerCallback, TrainingArguments)


class RandomTextDataset(Dataset):
    def __init__(self, size=32, seq=16, vocab=100, num_labels=2):
        generator = torch.Generator().manual_seed(0)
        lengths = torch.randint(4, seq + 1, (size,), generator=generator)
        self.attention_mask = (torch.arange(seq)[None, :] < lengths[:, None]).long()
        ids = torch.randint(3, vocab, (size, seq), generator=generator)
        self.input_ids = ids.masked_fill(self.attention_mask == 0, 1)  # 1 = Roberta's pad id
        self.labels = torch.randint(0, num_labels, (size,), generator=generator)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.input_ids[i], "attention_mask": self.attention_mask[i], "labels": self.labels[i]}


class PrintLoss(TrainerCallback):
    def on_log(self, args, state, control, logs=None, **kwargs):
        if logs and "loss" in logs:
            print(f"step {state.global_step} loss {logs['loss']:.4f}")


def main():
    torch.manual_seed(0)
    config = RobertaConfig(vocab_size=100, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                           intermediate_size=64, max_position_embeddings=40, num_labels=2,
                           pad_token_id=1, bos_token_id=0, eos_token_id=2)
    model = RobertaForSequenceClassification(config)
    with tempfile.TemporaryDirectory() as output_dir:
        args = TrainingArguments(
            output_dir=output_dir, max_steps=4, per_device_train_batch_size=4, learning_rate=1e-3,
            logging_strategy="steps", logging_steps=1, save_strategy="no", report_to="none",
            disable_tqdm=True, use_cpu=True, seed=0, dataloader_num_workers=0,
        )
        trainer = Trainer(model=model, args=args, train_dataset=RandomTextDataset(), callbacks=[PrintLoss()])
        trainer.remove_callback(PrinterCallback)
        result = trainer.train()
    print("global_step", result.global_step)
    print(f"train_loss {result.training_loss:.4f}")


if __name__ == "__main__":
    main()
