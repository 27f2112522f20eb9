import torch

from mean_teacher import MeanTeacher
from model import MLPClassifier

HP = {"ema_decay": 0.99, "consistency": 10.0, "rampup": 20, "noise": 0.15, "lr": 1e-3,
      "iters": 50, "n_lab": 16, "n_unl": 48}


def make_data(n, centers, gen):
    y = torch.randint(0, centers.size(0), (n,), generator=gen)
    return centers[y] + 0.8 * torch.randn(n, centers.size(1), generator=gen), y


def evaluate(model, x, y):
    was_training = model.training
    model.eval()
    with torch.no_grad():
        acc = (model(x).argmax(1) == y).float().mean().item()
    model.train(was_training)
    return acc


def main(hp=HP):
    torch.manual_seed(0)
    gen = torch.Generator().manual_seed(0)
    centers = 2 * torch.randn(4, 16, generator=gen)
    x_val, y_val = make_data(256, centers, gen)
    student = MLPClassifier()
    mt = MeanTeacher(student, hp["ema_decay"], hp["consistency"], hp["rampup"])
    optimizer = torch.optim.Adam(student.parameters(), lr=hp["lr"])
    student.train()
    mt.teacher.train()
    for it in range(hp["iters"]):
        x_lab, y_lab = make_data(hp["n_lab"], centers, gen)
        x_unl, _ = make_data(hp["n_unl"], centers, gen)
        loss, cl, cons = mt.loss(x_lab, y_lab, x_unl, it, hp["noise"])
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        mt.update_teacher(it)
        if it % 10 == 0:
            print(f"it {it:3d} class {cl.item():.4f} cons {cons.item():.5f} "
                  f"student {evaluate(student, x_val, y_val):.3f} "
                  f"teacher {evaluate(mt.teacher, x_val, y_val):.3f}")
    return student, mt


if __name__ == "__main__":
    student, mt = main()
