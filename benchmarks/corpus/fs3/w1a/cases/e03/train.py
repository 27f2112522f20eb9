"""Build the detector from its layer table and run a few objectness-only warm-up steps."""
import torch
import torch.nn as nn

from yolo import Model

CFG = {
    "nc": 4,
    "depth_multiple": 0.33,
    "width_multiple": 0.25,
    "anchors": [[10, 13, 16, 30, 33, 23], [30, 61, 62, 45, 59, 119]],
    # [from, number, module, args]
    "backbone": [
        [-1, 1, "Conv", [64, 3, 2]],
        [-1, 1, "Conv", [128, 3, 2]],
        [-1, 3, "C3", [128]],
        [-1, 1, "Conv", [256, 3, 2]],
        [-1, 3, "C3", [256]],
        [-1, 1, "Conv", [512, 3, 2]],
        [-1, 1, "C3", [512]],
    ],
    "head": [
        [[4, 6], 1, "Detect", []],
    ],
}

HYP = {"lr0": 0.01, "momentum": 0.937, "obj": 1.0, "steps": 3, "img_size": 128, "batch": 2}


def main():
    torch.manual_seed(0)
    model = Model(CFG)
    opt = torch.optim.SGD(model.parameters(), lr=HYP["lr0"], momentum=HYP["momentum"], nesterov=True)
    bce = nn.BCEWithLogitsLoss()
    model.train()
    for step in range(HYP["steps"]):
        imgs = torch.rand(HYP["batch"], 3, HYP["img_size"], HYP["img_size"])
        preds = model(imgs)
        loss = 0.0
        for p in preds:
            tobj = (torch.rand(p.shape[:-1]) > 0.97).float()
            loss = loss + HYP["obj"] * bce(p[..., 4], tobj)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step}: obj loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
