import torch
import torch.nn as nn
import torch.nn.functional as F

from sam import SAM

torch.manual_seed(0)
NUM_TASKS = 3


class MultiLabelNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(),
                                      nn.AdaptiveAvgPool2d(4), nn.Flatten())
        self.heads = nn.ModuleList([nn.Linear(8 * 16, 1) for _ in range(NUM_TASKS)])

    def forward(self, x):
        feat = self.features(x)
        return [head(feat) for head in self.heads]


def get_loss(output, target, t):
    logit = output[t].squeeze(1)
    loss_t = F.binary_cross_entropy_with_logits(logit, target[:, t])
    acc_t = ((logit > 0).float() == target[:, t]).float().mean()
    return loss_t, acc_t


model = MultiLabelNet()
optimizer = SAM(model.parameters(), torch.optim.SGD, rho=0.05, lr=0.1, momentum=0.9)
loader = [(torch.randn(4, 1, 16, 16), torch.randint(0, 2, (4, NUM_TASKS)).float()) for _ in range(3)]

for step, (image, target) in enumerate(loader):
    loss_sum = [0.0] * NUM_TASKS
    output = model(image)
    loss = 0
    for t in range(NUM_TASKS):
        loss_t, acc_t = get_loss(output, target, t)
        loss += loss_t
        loss_sum[t] += loss_t.item()
    optimizer.zero_grad()
    loss.backward()
    optimizer.first_step(zero_grad=True)

    output = model(image)
    for t in range(NUM_TASKS):
        loss_t, acc_t = get_loss(output, target, t)
        loss += loss_t
    loss.backward()
    optimizer.second_step(zero_grad=True)
    print(f"step {step}: " + " ".join(f"task{t}={v:.3f}" for t, v in enumerate(loss_sum)))
