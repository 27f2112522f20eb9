import torch
import torch.nn.functional as F

from model import GaussianNoise, create_student
from timm.utils import ModelEmaV3

CFG = dict(num_classes=5, image_size=32, labeled_bs=8, unlabeled_bs=8, steps=8,
           lr=0.02, ema_decay=0.9, consistency=10.0, rampup_steps=4, seed=0)


def consistency_weight(step, cfg):
    return cfg["consistency"] * min(1.0, step / cfg["rampup_steps"])


def softmax_mse(student_logits, teacher_logits):
    return F.mse_loss(student_logits.softmax(1), teacher_logits.softmax(1))


def make_batch(cfg, n, labeled):
    x = torch.randn(n, 3, cfg["image_size"], cfg["image_size"])
    if not labeled:
        return x
    y = torch.randint(0, cfg["num_classes"], (n,))
    x[:, 0] += y.view(-1, 1, 1).float() * 0.5
    return x, y


def main(cfg):
    torch.manual_seed(cfg["seed"])
    model = create_student(cfg["num_classes"])
    noise = GaussianNoise(0.15)
    optimizer = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9,
                                nesterov=True, weight_decay=1e-4)
    model_ema = ModelEmaV3(model, decay=cfg["ema_decay"])
    model_ema.requires_grad_(False)

    for step in range(cfg["steps"]):
        model.train()
        x_l, y_l = make_batch(cfg, cfg["labeled_bs"], labeled=True)
        x_u = make_batch(cfg, cfg["unlabeled_bs"], labeled=False)
        x_all = torch.cat([x_l, x_u])

        logits = model(noise(x_all))
        class_loss = F.cross_entropy(logits[: len(x_l)], y_l)
        with torch.no_grad():
            teacher_logits = model_ema.module(noise(x_all))
        cons_loss = softmax_mse(logits, teacher_logits)
        loss = class_loss + consistency_weight(step, cfg) * cons_loss

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        model_ema.update(model, step=step)
        print(f"step {step}: class {class_loss.item():.4f} consistency {cons_loss.item():.5f}")


if __name__ == "__main__":
    main(CFG)
