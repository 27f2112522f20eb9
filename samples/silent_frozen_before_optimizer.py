"""Layer-wise training: a scheduler freezes every block when it is made, then unfreezes one
block per step. It is made before the optimizer, which is built from the parameters that require
grad at that moment: the blocks are never in it, so they get gradients and never change."""
import torch
import torch.nn as nn


class BlockScheduler:
    def __init__(self, blocks):
        self.blocks = blocks
        self.freeze_all()

    def freeze_all(self):
        for block in self.blocks:
            block.requires_grad_(False)

    def activate(self, step):
        self.freeze_all()
        self.blocks[step % len(self.blocks)].requires_grad_(True)


torch.manual_seed(0)
blocks = nn.ModuleList(nn.Linear(8, 8) for _ in range(3))
head = nn.Linear(8, 1)
scheduler = BlockScheduler(blocks)
optimizer = torch.optim.SGD([p for p in [*blocks.parameters(), *head.parameters()] if p.requires_grad], lr=0.1)
for step in range(4):
    scheduler.activate(step)
    x, y = torch.randn(4, 8), torch.randn(4, 1)
    h = x
    for block in blocks:
        h = torch.relu(block(h))
    loss = nn.functional.mse_loss(head(h), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print("loss", round(loss.item(), 4))
