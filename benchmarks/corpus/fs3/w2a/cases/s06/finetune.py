import compat  # noqa: F401
import numpy as np
import torch
from torch.utils.data import Dataset
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments, set_seed

from lisa import DynamicLayerActivationCallback

model_args = {"n_layer": 4, "n_embd": 32, "n_head": 2, "vocab_size": 128, "n_positions": 32,
              "bos_token_id": 0, "eos_token_id": 0}
finetuner_args = {"lisa_activated_layers": 1, "lisa_interval_steps": 3, "output_dir": "output_lisa"}


class TextDataset(Dataset):
    def __init__(self, n, seq_len, vocab, seed):
        g = torch.Generator().manual_seed(seed)
        self.ids = torch.randint(0, vocab, (n, seq_len), generator=g)

    def __len__(self):
        return self.ids.shape[0]

    def __getitem__(self, i):
        return {"input_ids": self.ids[i], "labels": self.ids[i]}


def tune(model, dataset):
    training_args = TrainingArguments(
        output_dir=finetuner_args["output_dir"], per_device_train_batch_size=4, max_steps=12,
        learning_rate=1e-3, logging_steps=4, save_strategy="no", report_to=[], use_cpu=True,
        dataloader_num_workers=0, seed=42,
    )
    callbacks = []
    if finetuner_args["lisa_activated_layers"] > 0:
        callbacks.append(DynamicLayerActivationCallback(
            n_layers=finetuner_args["lisa_activated_layers"],
            interval_steps=finetuner_args["lisa_interval_steps"],
            model=model,
        ))
    trainer = Trainer(model=model, args=training_args, train_dataset=dataset, callbacks=callbacks)
    trainer.train()
    return trainer


if __name__ == "__main__":
    set_seed(42)
    np.random.seed(0)
    model = GPT2LMHeadModel(GPT2Config(**model_args))
    dataset = TextDataset(48, 16, model_args["vocab_size"], seed=1)
    trainer = tune(model, dataset)
