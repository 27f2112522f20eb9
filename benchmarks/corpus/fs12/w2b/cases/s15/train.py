import torch
import torch.nn.functional as F

from hdmnet import OneModel

ARGS = {
    "shot": 5,
    "reduce_dim": 32,
    "kshot_trans_dim": 2,
    "base_lr": 0.05,
    "momentum": 0.9,
    "weight_decay": 1e-4,
    "power": 0.9,
    "batch_size": 4,
    "img_size": 32,
    "max_iter": 20,
}


def episode(args, g):
    b, k, s = args["batch_size"], args["shot"], args["img_size"]
    x = torch.randn(b, 3, s, s, generator=g)
    y = (torch.rand(b, s, s, generator=g) > 0.6).long()
    s_x = torch.randn(b, k, 3, s, s, generator=g)
    s_y = (torch.rand(b, k, s, s, generator=g) > 0.6).long()
    return x, y, s_x, s_y


def poly_learning_rate(optimizer, base_lr, curr_iter, max_iter, power):
    lr = base_lr * (1 - float(curr_iter) / max_iter) ** power
    for group in optimizer.param_groups:
        group["lr"] = lr


def main(args=ARGS):
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = OneModel(args)
    optimizer = model.get_optim(model, args, LR=args["base_lr"])
    model.train()
    for it in range(args["max_iter"]):
        poly_learning_rate(optimizer, args["base_lr"], it, args["max_iter"], args["power"])
        x, y, s_x, s_y = episode(args, g)
        output = model(x, s_x, s_y)
        main_loss = F.cross_entropy(output, y)
        optimizer.zero_grad()
        main_loss.backward()
        optimizer.step()
        if it % 5 == 0:
            print(f"iter {it:3d} lr {optimizer.param_groups[0]['lr']:.4f} loss {main_loss.item():.4f}")
    return model


if __name__ == "__main__":
    main()
