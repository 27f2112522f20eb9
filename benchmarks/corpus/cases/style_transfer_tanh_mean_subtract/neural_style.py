import torch
import torch.nn as nn

import utils
from transformer_net import TransformerNet


class LossNet(nn.Module):
    """Small frozen feature extractor standing in for VGG16."""

    def __init__(self):
        super().__init__()
        self.slice1 = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU())
        self.slice2 = nn.Sequential(nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
        for p in self.parameters():
            p.requires_grad_(False)

    def forward(self, x):
        h1 = self.slice1(x)
        h2 = self.slice2(h1)
        return [h1, h2]


def train(epochs=2, batches=3, content_weight=1.0, style_weight=5.0):
    transformer = TransformerNet()
    optimizer = torch.optim.Adam(transformer.parameters(), lr=1e-3)
    mse_loss = nn.MSELoss()
    vgg = LossNet()

    style = utils.preprocess_batch(torch.rand(1, 3, 32, 32) * 2 - 1)
    utils.subtract_imagenet_mean_batch(style)
    gram_style = [utils.gram_matrix(f) for f in vgg(style)]

    for e in range(epochs):
        for batch_id in range(batches):
            x = utils.preprocess_batch(torch.rand(4, 3, 32, 32) * 2 - 1)
            optimizer.zero_grad()
            y = transformer(x)
            xc = x.clone()

            utils.subtract_imagenet_mean_batch(y)
            utils.subtract_imagenet_mean_batch(xc)

            features_y = vgg(y)
            features_xc = vgg(xc)
            content_loss = content_weight * mse_loss(features_y[1], features_xc[1])
            style_loss = 0.0
            for fy, gs in zip(features_y, gram_style):
                style_loss = style_loss + style_weight * mse_loss(utils.gram_matrix(fy), gs.expand(4, -1, -1))

            total_loss = content_loss + style_loss
            total_loss.backward()
            optimizer.step()
            print(f"epoch {e} batch {batch_id} content {content_loss.item():.4f} style {style_loss.item():.6f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train()
