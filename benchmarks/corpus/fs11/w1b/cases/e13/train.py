import logging
import warnings
from dataclasses import dataclass

import torch

from modeling_vlm import build_model

warnings.filterwarnings("ignore")
logging.getLogger("transformers").setLevel(logging.ERROR)

IMG_CONTEXT_ID = 3
NUM_IMAGE_TOKENS = 16


@dataclass
class ModelArguments:
    freeze_llm: bool = True
    freeze_backbone: bool = True
    freeze_mlp: bool = False
    grad_checkpoint: bool = True


@dataclass
class TrainingArguments:
    learning_rate: float = 2e-4
    max_steps: int = 4
    per_device_train_batch_size: int = 2
    text_len: int = 12
    seed: int = 42


def _freeze_params(module):
    for param in module.parameters():
        param.requires_grad = False


def make_batch(args, vocab_size=128):
    bs = args.per_device_train_batch_size
    text = torch.randint(4, vocab_size, (bs, args.text_len))
    img = torch.full((bs, NUM_IMAGE_TOKENS), IMG_CONTEXT_ID)
    input_ids = torch.cat([text[:, :2], img, text[:, 2:]], dim=1)
    labels = input_ids.clone()
    labels[:, : 2 + NUM_IMAGE_TOKENS] = -100
    return {
        "pixel_values": torch.randn(bs, 3, 32, 32),
        "input_ids": input_ids,
        "attention_mask": torch.ones_like(input_ids),
        "labels": labels,
    }


def main():
    model_args, training_args = ModelArguments(), TrainingArguments()
    torch.manual_seed(training_args.seed)
    model = build_model()

    if model_args.grad_checkpoint:
        model.language_model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if model_args.freeze_backbone:
        _freeze_params(model.vision_model)
    if model_args.freeze_llm:
        model.language_model = model.language_model.eval()
        _freeze_params(model.language_model)
    if model_args.freeze_mlp:
        _freeze_params(model.mlp1)
    model.language_model.enable_input_require_grads()

    trainable = [p for p in model.parameters() if p.requires_grad]
    print(f"trainable params: {sum(p.numel() for p in trainable)}")
    optimizer = torch.optim.AdamW(trainable, lr=training_args.learning_rate)

    model.mlp1.train()
    for step in range(training_args.max_steps):
        batch = make_batch(training_args)
        outputs = model(**batch)
        outputs.loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"step {step} loss {outputs.loss.item():.4f}")


if __name__ == "__main__":
    main()
