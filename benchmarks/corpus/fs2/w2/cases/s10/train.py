import torch
import torch.nn.functional as F

from model import NextItemModel

torch.manual_seed(0)
N_ITEMS, N_FEATS, MAX_LEN, BATCH = 50, 6, 10, 8


def sample_batch():
    lengths = torch.randint(0, MAX_LEN + 1, (BATCH,))
    history = torch.randint(1, N_ITEMS, (BATCH, MAX_LEN))
    history[torch.arange(MAX_LEN)[None, :] >= lengths[:, None]] = 0
    user_features = torch.randn(BATCH, N_FEATS)
    targets = torch.randint(1, N_ITEMS, (BATCH,))
    clicked = torch.randint(0, 2, (BATCH,)).float()
    return history, user_features, targets, clicked


model = NextItemModel(N_ITEMS, N_FEATS)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for step in range(6):
    history, user_features, targets, clicked = sample_batch()
    logits = model(history, user_features, targets)
    loss = F.binary_cross_entropy_with_logits(logits, clicked)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
