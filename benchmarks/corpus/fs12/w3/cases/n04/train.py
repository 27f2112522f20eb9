import torch
import torch.nn.functional as F

from ema import ModelEmaV2
from networks import MLPClassifier

CFG = dict(
    in_dim=32,
    num_classes=5,
    n_labeled=100,
    n_unlabeled=2000,
    batch_labeled=32,
    batch_unlabeled=128,
    steps=300,
    lr=3e-3,
    ema_decay=0.99,
    consistency_weight=10.0,
    rampup_steps=100,
    noise_std=0.3,
    seed=3,
)


def synth(n, cfg, gen):
    centers = torch.randn(cfg["num_classes"], cfg["in_dim"], generator=torch.Generator().manual_seed(7)) * 1.5
    y = torch.randint(0, cfg["num_classes"], (n,), generator=gen)
    x = centers[y] + torch.randn(n, cfg["in_dim"], generator=gen)
    return x, y


def augment(x, std):
    return x + std * torch.randn_like(x)


def sigmoid_rampup(step, length):
    if length == 0:
        return 1.0
    t = min(step, length) / length
    return float(torch.exp(torch.tensor(-5.0 * (1.0 - t) ** 2)))


def accuracy(model, x, y):
    model.eval()
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    return acc


def main(cfg):
    torch.manual_seed(cfg["seed"])
    gen = torch.Generator().manual_seed(cfg["seed"])
    x_lab, y_lab = synth(cfg["n_labeled"], cfg, gen)
    x_unl, _ = synth(cfg["n_unlabeled"], cfg, gen)
    x_test, y_test = synth(1000, cfg, gen)

    student = MLPClassifier(cfg["in_dim"], num_classes=cfg["num_classes"])
    teacher = ModelEmaV2(student, decay=cfg["ema_decay"])
    optimizer = torch.optim.Adam(student.parameters(), lr=cfg["lr"])

    for step in range(1, cfg["steps"] + 1):
        student.train()
        li = torch.randint(0, x_lab.size(0), (cfg["batch_labeled"],))
        ui = torch.randint(0, x_unl.size(0), (cfg["batch_unlabeled"],))
        xb = torch.cat([x_lab[li], x_unl[ui]])

        student_logits = student(augment(xb, cfg["noise_std"]))
        with torch.no_grad():
            teacher_logits = teacher(augment(xb, cfg["noise_std"]))

        class_loss = F.cross_entropy(student_logits[: cfg["batch_labeled"]], y_lab[li])
        cons_loss = F.mse_loss(student_logits.softmax(1), teacher_logits.softmax(1))
        w = cfg["consistency_weight"] * sigmoid_rampup(step, cfg["rampup_steps"])
        loss = class_loss + w * cons_loss

        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        teacher.update(student)

        if step % 50 == 0:
            print(f"step {step:4d} class {class_loss.item():.4f} cons {cons_loss.item():.5f} "
                  f"student_acc {accuracy(student, x_test, y_test):.3f} "
                  f"teacher_acc {accuracy(teacher, x_test, y_test):.3f}")


if __name__ == "__main__":
    main(CFG)
