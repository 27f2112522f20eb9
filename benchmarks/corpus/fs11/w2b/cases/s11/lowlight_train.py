import argparse

import torch
from torch.utils.data import DataLoader, Dataset

import Myloss
import model


class LowLightFrames(Dataset):
    """Frames pulled from low-light clips; dropped frames are stored as black images."""

    def __init__(self, num_frames, size, drop_every):
        g = torch.Generator().manual_seed(1)
        base = torch.rand(num_frames, 3, size, size, generator=g) * 0.25
        tint = torch.rand(num_frames, 3, 1, 1, generator=g) * 0.1
        self.frames = (base + tint).clamp(0, 1)
        if drop_every > 0:
            self.frames[drop_every - 1::drop_every] = 0.0

    def __len__(self):
        return self.frames.size(0)

    def __getitem__(self, idx):
        return self.frames[idx]


def train(config):
    torch.manual_seed(0)
    DCE_net = model.enhance_net_nopool()
    DCE_net.apply(model.weights_init)

    dataset = LowLightFrames(config.num_frames, config.image_size, config.drop_every)
    train_loader = DataLoader(dataset, batch_size=config.train_batch_size, shuffle=False)

    L_color = Myloss.L_color()
    L_exp = Myloss.L_exp(8, 0.6)
    L_TV = Myloss.L_TV()

    optimizer = torch.optim.Adam(DCE_net.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    DCE_net.train()

    for epoch in range(config.num_epochs):
        for iteration, img_lowlight in enumerate(train_loader):
            enhanced_image, A = DCE_net(img_lowlight)

            Loss_TV = 200 * L_TV(A)
            loss_col = 5 * torch.mean(L_color(enhanced_image))
            loss_exp = 10 * torch.mean(L_exp(enhanced_image))
            loss = Loss_TV + loss_col + loss_exp

            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(DCE_net.parameters(), config.grad_clip_norm)
            optimizer.step()

            if (iteration + 1) % config.display_iter == 0:
                print("Loss at iteration", iteration + 1, ":", loss.item())
    return DCE_net


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--lr", type=float, default=0.0001)
    parser.add_argument("--weight_decay", type=float, default=0.0001)
    parser.add_argument("--grad_clip_norm", type=float, default=0.1)
    parser.add_argument("--num_epochs", type=int, default=1)
    parser.add_argument("--train_batch_size", type=int, default=4)
    parser.add_argument("--num_frames", type=int, default=24)
    parser.add_argument("--image_size", type=int, default=32)
    parser.add_argument("--drop_every", type=int, default=11)
    parser.add_argument("--display_iter", type=int, default=2)
    config = parser.parse_args([])
    train(config)
