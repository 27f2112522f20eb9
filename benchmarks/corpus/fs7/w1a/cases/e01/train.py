import torch
import torch.nn.functional as F

from model import MultiViewNet


def split_patches(img, n=2):
    b, c, h, w = img.shape
    ph, pw = h // n, w // n
    tiles = img.unfold(2, ph, ph).unfold(3, pw, pw)
    tiles = tiles.permute(0, 2, 3, 1, 4, 5).reshape(b * n * n, c, ph, pw)
    return F.interpolate(tiles, size=(h, w), mode="bilinear", align_corners=False)


def structure_loss(pred, mask):
    weit = 1 + 5 * torch.abs(F.avg_pool2d(mask, 7, stride=1, padding=3) - mask)
    wbce = F.binary_cross_entropy_with_logits(pred, mask, reduction="none")
    wbce = (weit * wbce).sum(dim=(2, 3)) / weit.sum(dim=(2, 3))
    prob = torch.sigmoid(pred)
    inter = ((prob * mask) * weit).sum(dim=(2, 3))
    union = ((prob + mask) * weit).sum(dim=(2, 3))
    wiou = 1 - (inter + 1) / (union - inter + 1)
    return (wbce + wiou).mean()


def main():
    torch.manual_seed(0)
    model = MultiViewNet()
    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5, weight_decay=1e-4)
    for step in range(2):
        images = torch.randn(2, 3, 64, 64)
        masks = (torch.rand(2, 1, 64, 64) > 0.5).float()
        patches = split_patches(images)
        pred = model(images, patches)
        loss = structure_loss(pred, masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
