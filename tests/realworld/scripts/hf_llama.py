"""LLaMA (transformers' own LlamaForCausalLM, tiny random config): next-token training, AdamW."""

import _cpu_torchvision  # noqa: F401  (see that module: torchvision's CUDA wheel on a CPU torch)

import torch
from transformers import LlamaConfig, LlamaForCausalLM

torch.manual_seed(0)

config = LlamaConfig(
    vocab_size=128, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
    num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
    bos_token_id=1, eos_token_id=2, pad_token_id=0,
)
model = LlamaForCausalLM(config)
model.train()

input_ids = torch.randint(3, config.vocab_size, (4, 16))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
for step in range(4):
    loss = model(input_ids=input_ids, labels=input_ids).loss
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    print(f"step {step} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    generated = model.generate(input_ids[:1, :4], max_new_tokens=4, do_sample=False)
print("generated", generated.tolist())
