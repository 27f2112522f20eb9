"""A correct CNN with BatchNorm: train steps, then evaluation under no_grad. No findings."""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Conv2d(1, 4, 3, padding=1), nn.BatchNorm2d(4), nn.ReLU(inplace=True),
                      nn.MaxPool2d(2), nn.Flatten(), nn.Linear(4 * 4 * 4, 3))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
images, labels = torch.randn(8, 1, 8, 8), torch.randint(0, 3, (8,))
for step in range(3):
    optimizer.zero_grad(set_to_none=False)
    loss = nn.functional.cross_entropy(model(images), labels)
    loss.backward()
    optimizer.step()
model.eval()
with torch.no_grad():
    accuracy = (model(images).argmax(dim=1) == labels).float().mean().item()
print(f"loss {loss.item():.4f} accuracy {accuracy:.2f}")
