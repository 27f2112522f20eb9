import torch
import torch.optim as optim

from yolo import Model, compute_loss

hyp = {"lr0": 0.01, "momentum": 0.937, "weight_decay": 5e-4}


def train(epochs=3, batch_size=4):
    torch.manual_seed(0)
    model = Model()

    # Freeze
    freeze = ["model.0.", "model.1."]  # parameter names to freeze (full or partial)
    for k, v in model.named_parameters():
        if any(x in k for x in freeze):
            print(f"freezing {k}")
            v.requires_grad = False

    # Optimizer
    pg0, pg1, pg2 = [], [], []  # optimizer parameter groups
    for k, v in model.named_parameters():
        v.requires_grad = True
        if ".bias" in k:
            pg2.append(v)  # biases
        elif ".weight" in k and ".bn" not in k:
            pg1.append(v)  # apply weight decay
        else:
            pg0.append(v)  # all else
    optimizer = optim.SGD(pg0, lr=hyp["lr0"], momentum=hyp["momentum"], nesterov=True)
    optimizer.add_param_group({"params": pg1, "weight_decay": hyp["weight_decay"]})
    optimizer.add_param_group({"params": pg2})

    frozen_before = model.model[0].conv.weight.detach().clone()
    for epoch in range(epochs):
        for i in range(4):
            imgs = torch.rand(batch_size, 3, 32, 32)
            targets = (torch.rand(batch_size, 24, 8, 8) > 0.9).float()
            loss = compute_loss(model(imgs), targets)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    changed = not torch.equal(frozen_before, model.model[0].conv.weight)
    print(f"frozen layer model.0.conv changed during training: {changed}")


if __name__ == "__main__":
    train()
