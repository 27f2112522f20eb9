import torch
import torch.nn.functional as F

from watermodel import WaterModel, recompose, restore

torch.manual_seed(0)

OPT = {
    "iters": 4,
    "lr": 1e-3,
    "size": 48,
    "w_rec": 1.0,
    "w_dcp": 0.1,
}


def dark_channel(img, patch=7):
    dc = img.min(dim=1, keepdim=True)[0]
    return -F.max_pool2d(-dc, patch, stride=1, padding=patch // 2)


def zero_shot_restore(img, opt):
    model = WaterModel()
    optimizer = torch.optim.Adam(model.parameters(), lr=opt["lr"])
    for it in range(opt["iters"]):
        model.train()
        t, a = model(img)
        j = restore(img, t, a, model.t_min)
        rec = recompose(j, t, a)
        loss = opt["w_rec"] * F.mse_loss(rec, img) + opt["w_dcp"] * dark_channel(j).abs().mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {it} loss {loss.item():.5f}")
    return j.detach().clamp(0, 1)


if __name__ == "__main__":
    img = torch.rand(1, 3, OPT["size"], OPT["size"]) * 0.6 + 0.2
    out = zero_shot_restore(img, OPT)
    print(out.shape)
