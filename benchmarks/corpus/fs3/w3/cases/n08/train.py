import torch
import torch.nn.functional as F

from dann import DANN


class GradNormMonitor:
    def __init__(self):
        self.records = {}

    def watch(self, name, tensor):
        if tensor.requires_grad:
            tensor.register_hook(lambda g, name=name: self.records.setdefault(name, []).append(g.norm().item()))


def domain_batches(steps, bs, seed):
    g = torch.Generator().manual_seed(seed)
    for _ in range(steps):
        xs = torch.randn(bs, 20, generator=g)
        ys = torch.randint(0, 4, (bs,), generator=g)
        xt = torch.randn(bs, 20, generator=g) + 0.5
        yield xs, ys, xt


def main(steps=10):
    torch.manual_seed(0)
    model = DANN()
    optim = torch.optim.Adam(model.parameters(), lr=1e-3)
    monitor = GradNormMonitor()

    for i, (source_x, source_y, target_x) in enumerate(domain_batches(steps, 16, seed=5)):
        x = torch.cat([source_x, target_x])
        domain_y = torch.cat([torch.ones(source_x.shape[0]), torch.zeros(target_x.shape[0])])

        features, label_preds, domain_preds = model(x)
        monitor.watch("features", features)
        domain_loss = F.binary_cross_entropy_with_logits(domain_preds, domain_y)
        label_loss = F.cross_entropy(label_preds[: source_x.shape[0]], source_y)
        loss = domain_loss + label_loss

        optim.zero_grad()
        loss.backward()
        optim.step()
        if i % 3 == 0:
            print(f"step {i} domain {domain_loss.item():.4f} label {label_loss.item():.4f} "
                  f"|dL/df| {monitor.records['features'][-1]:.4f}")
    return model, monitor


if __name__ == "__main__":
    model, monitor = main()
