"""GPT-2 (transformers' own GPT2LMHeadModel, tiny random config, dropout on) trained with
model.gradient_checkpointing_enable(); the first step's gradients are checked against an
identical model without checkpointing (same seed, so the same dropout masks), and a forward
pre-hook counts how often the first block's MLP starts per step (twice: forward, then the
recomputation in backward, which torch stops early once it has what backward needs)."""

import _cpu_torchvision  # noqa: F401  (see that module: torchvision's CUDA wheel on a CPU torch)

import copy

import torch
from transformers import GPT2Config, GPT2LMHeadModel

torch.manual_seed(0)

config = GPT2Config(vocab_size=128, n_positions=32, n_embd=32, n_layer=2, n_head=2,
                    bos_token_id=1, eos_token_id=1, pad_token_id=0, use_cache=False)
model = GPT2LMHeadModel(config)
reference = copy.deepcopy(model)
# In transformers 5.x this is a deprecated alias of activation_checkpointing_enable() (a FutureWarning).
model.gradient_checkpointing_enable()
model.train()
reference.train()

# With checkpointing, a block's inner modules run twice per step: in the forward, and again in the backward.
mlp_calls = []
model.transformer.h[0].mlp.register_forward_pre_hook(lambda module, args: mlp_calls.append(module.training))

input_ids = torch.randint(2, config.vocab_size, (4, 16))

torch.manual_seed(1)
reference_loss = reference(input_ids=input_ids, labels=input_ids).loss
reference_grads = torch.autograd.grad(reference_loss, list(reference.parameters()))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step in range(4):
    torch.manual_seed(1 + step)
    loss = model(input_ids=input_ids, labels=input_ids).loss
    loss.backward()
    if step == 0:
        diff = max((p.grad - g).abs().max().item() for p, g in zip(model.parameters(), reference_grads))
        print("gradients match the model without checkpointing:", diff < 1e-5)
    optimizer.step()
    optimizer.zero_grad()
    print(f"step {step} loss {loss.item():.4f} first-block mlp calls {len(mlp_calls)}")
    mlp_calls.clear()
