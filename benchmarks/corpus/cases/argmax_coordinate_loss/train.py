import torch
import torch.nn.functional as F

from model import CoordNet

BINS = 16


def decode_coords(out_x, out_y, out_z):
    coor = torch.stack([torch.argmax(out_x, dim=1),
                        torch.argmax(out_y, dim=1),
                        torch.argmax(out_z, dim=1)], dim=-1)
    coor = 2.0 * coor.float() / (BINS - 1.0) - 1.0
    return coor


def main():
    torch.manual_seed(0)
    model = CoordNet(BINS)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for it in range(3):
        img = torch.randn(2, 3, 12, 12)
        gt_coor = torch.rand(2, 12, 12, 3) * 2 - 1
        out_x, out_y, out_z = model(img)
        pred_coor = decode_coords(out_x, out_y, out_z)
        loss = F.l1_loss(pred_coor, gt_coor)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
