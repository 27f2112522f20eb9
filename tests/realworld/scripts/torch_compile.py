"""torch.compile on a small MLP with LayerNorm and dropout: a few training steps through the
compiled module (forward and backward are compiled), then an eval forward."""

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)

model = nn.Sequential(nn.Linear(16, 64), nn.LayerNorm(64), nn.GELU(), nn.Dropout(0.1), nn.Linear(64, 64),
                      nn.ReLU(), nn.Linear(64, 4))
# The default backend (inductor): on a 2-core CPU the first run compiles in about 30 s, a run with
# inductor's on-disk cache warm (e.g. the second of the suite's two runs) in about 7 s; well
# under the 60 s that would call for backend="aot_eager".
compiled = torch.compile(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

x = torch.randn(32, 16)
y = x[:, :4].argmax(1)
model.train()
for step in range(3):
    loss = F.cross_entropy(compiled(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step} loss {loss.item():.4f}")

model.eval()
with torch.no_grad():
    accuracy = (compiled(x).argmax(1) == y).float().mean().item()
print(f"eval accuracy {accuracy:.4f}")
