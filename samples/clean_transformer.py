"""A small transformer encoder trained correctly, with a running loss kept as a float. No findings."""
import torch
import torch.nn as nn

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, dropout=0.0, batch_first=True)
model = nn.Sequential(nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False), nn.Linear(16, 1))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
tokens, target = torch.randn(4, 6, 16), torch.randn(4, 6, 1)
running = 0.0
for step in range(3):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(tokens), target)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    running += loss.item()
print(f"mean loss {running / 3:.4f}")
