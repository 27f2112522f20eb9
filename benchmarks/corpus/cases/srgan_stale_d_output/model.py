import torch
import torch.nn as nn
import torch.nn.functional as F


class Generator(nn.Module):
    def __init__(self, scale=2):
        super().__init__()
        self.head = nn.Conv2d(3, 16, 3, padding=1)
        self.body = nn.Conv2d(16, 16, 3, padding=1)
        self.up = nn.Conv2d(16, 3 * scale * scale, 3, padding=1)
        self.shuffle = nn.PixelShuffle(scale)

    def forward(self, x):
        h = F.relu(self.head(x))
        h = h + F.relu(self.body(h))
        return torch.tanh(self.shuffle(self.up(h)))


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1),
            nn.LeakyReLU(0.2),
            nn.Conv2d(16, 32, 3, stride=2, padding=1),
            nn.LeakyReLU(0.2),
        )
        self.classifier = nn.Linear(32, 1)

    def forward(self, x):
        h = self.features(x).mean(dim=(2, 3))
        return torch.sigmoid(self.classifier(h))


class GeneratorLoss(nn.Module):
    def forward(self, out_labels, out_images, target_images):
        adversarial_loss = torch.mean(1 - out_labels)
        image_loss = F.mse_loss(out_images, target_images)
        return image_loss + 0.001 * adversarial_loss
