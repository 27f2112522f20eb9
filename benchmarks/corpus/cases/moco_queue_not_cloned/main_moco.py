import torch
import torch.nn as nn

from builder import MoCo


def small_encoder(dim=32):
    return nn.Sequential(
        nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
        nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.BatchNorm2d(32), nn.ReLU(),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, dim))


def augment(images):
    flipped = torch.where(torch.rand(images.shape[0], 1, 1, 1) < 0.5, images.flip(3), images)
    return flipped + 0.1 * torch.randn_like(images)


def train(model, optimizer, criterion, epochs=2, steps=3):
    model.train()
    for epoch in range(epochs):
        for i in range(steps):
            images = torch.rand(16, 3, 32, 32)
            output, target = model(im_q=augment(images), im_k=augment(images))
            loss = criterion(output, target)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    model = MoCo(small_encoder())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.03, momentum=0.9, weight_decay=1e-4)
    train(model, optimizer, nn.CrossEntropyLoss())
