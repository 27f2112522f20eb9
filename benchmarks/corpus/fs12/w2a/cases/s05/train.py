import torch

from model import PoseRegressor
from utils import pose_loss, setup_finetune, synthetic_views

CFG = {
    "width": 16,
    "lr": 1e-3,
    "iters": 40,
    "batch_size": 16,
    "freeze_backbone": True,
}


def main():
    torch.manual_seed(0)
    model = PoseRegressor(CFG["width"])
    model = setup_finetune(model, CFG)
    optimizer = torch.optim.Adam(model.parameters(), lr=CFG["lr"])
    for it in range(CFG["iters"]):
        img, t_gt, q_gt = synthetic_views(CFG["batch_size"])
        t_pred, q_pred = model(img)
        loss, t_err, q_err = pose_loss(t_pred, q_pred, t_gt, q_gt)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if it % 10 == 0:
            print(f"iter {it:3d}  loss {loss.item():.4f}  t_err {t_err.item():.4f}  q_err {q_err.item():.4f}")


if __name__ == "__main__":
    main()
