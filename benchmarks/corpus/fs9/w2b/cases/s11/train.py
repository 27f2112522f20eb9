import torch
import torch.nn.functional as F

from model import CompressedTransformerLM

torch.manual_seed(0)

CONFIGS = {
    "encoder": dict(num_tokens=64, dim=32, depth=2, heads=4, max_seq_len=64, causal=False, compression_factor=2),
    "lm": dict(num_tokens=64, dim=32, depth=2, heads=4, max_seq_len=64, causal=True, compression_factor=2),
}
TASK = "lm"

model = CompressedTransformerLM(**CONFIGS[TASK])
optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)


def get_batch(batch_size=4, seq_len=33):
    data = torch.randint(0, 64, (batch_size, seq_len))
    return data[:, :-1], data[:, 1:]


for step in range(5):
    inp, target = get_batch()
    logits = model(inp)
    loss = F.cross_entropy(logits.reshape(-1, logits.shape[-1]), target.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")
