import torch
import torch.nn.functional as F

from network import MultiHeadNet, expand_input_channels, replace_classifier

cfg = {"in_ch": 4, "num_classes": 6, "num_attrs": 4, "freeze": ["body.stem"], "steps": 6, "lr": 0.05,
       "attr_weight": 0.5}


def load_source_model():
    torch.manual_seed(11)
    return MultiHeadNet(num_classes=10, num_attrs=cfg["num_attrs"])


def adapt(model):
    expand_input_channels(model, cfg["in_ch"])
    replace_classifier(model, cfg["num_classes"])
    for name, p in model.named_parameters():
        if any(name.startswith(prefix) for prefix in cfg["freeze"]):
            p.requires_grad = False
    return model


def batch(step):
    g = torch.Generator().manual_seed(step)
    x = torch.randn(8, cfg["in_ch"], 16, 16, generator=g)
    y = torch.randint(0, cfg["num_classes"], (8,), generator=g)
    attrs = torch.randint(0, 2, (8, cfg["num_attrs"]), generator=g).float()
    return x, y, attrs


def grad_norm(params):
    return torch.sqrt(sum((p.grad ** 2).sum() for p in params if p.grad is not None)).item()


def main():
    model = adapt(load_source_model())
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(trainable, lr=cfg["lr"], momentum=0.9)
    shared = list(model.body.block.parameters())

    model.train()
    for step in range(cfg["steps"]):
        x, y, attrs = batch(step)
        optimizer.zero_grad(set_to_none=False)
        logits, attr_logits = model(x)
        l1 = F.cross_entropy(logits, y)
        l2 = cfg["attr_weight"] * F.binary_cross_entropy_with_logits(attr_logits, attrs)

        l1.backward(retain_graph=True)
        g1 = grad_norm(shared)
        l2.backward()
        g_total = grad_norm(shared)
        optimizer.step()
        print(f"step {step} cls {l1.item():.4f} attr {l2.item():.4f} |g_cls| {g1:.4f} |g| {g_total:.4f}")
    return model, optimizer


if __name__ == "__main__":
    model, optimizer = main()
