import torch
import torch.nn.functional as F

from model import SegNet


def make_batch(n=8, size=16, num_classes=4):
    images = torch.randn(n, 3, size, size)
    masks = (images[:, 0] > 0.5).long() + (images[:, 1] > 0.5).long() + (images[:, 2] > 1.0).long()
    return images, masks.clamp_(max=num_classes - 1)


def mean_iou(logits, target, num_classes):
    pred = logits.argmax(1)
    ious = []
    for c in range(num_classes):
        inter = ((pred == c) & (target == c)).sum().item()
        union = ((pred == c) | (target == c)).sum().item()
        if union:
            ious.append(inter / union)
    return sum(ious) / len(ious)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SegNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)
    val_images, val_masks = make_batch(16)

    for step in range(30):
        model.train()
        images, masks = make_batch()
        logits = model(images)
        loss = F.cross_entropy(logits, masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if step % 10 == 9:
            model.eval()
            with torch.no_grad():
                miou = mean_iou(model(val_images), val_masks, 4)
            print(f"step {step + 1} loss {loss.item():.4f} val mIoU {miou:.3f}")
