import torch
import torch.nn.functional as F

from nets import MultiTaskNet


def seg_loss(out, batch):
    return F.cross_entropy(out["seg"], batch["seg"])


def depth_loss(out, batch):
    valid = batch["depth"] > 0
    return F.l1_loss(out["depth"][valid], batch["depth"][valid])


TASKS = {"seg": seg_loss, "depth": depth_loss}
CFG = {"tasks": {"seg": 1.0, "depth": 0.5}, "steps": 8, "lr": 0.01, "batch": 4, "size": 16, "checkpoint": True}


def make_batch(cfg):
    n, s = cfg["batch"], cfg["size"]
    depth = torch.rand(n, 1, s, s)
    depth[:, :, :2] = 0.0
    return {"image": torch.randn(n, 3, s, s), "seg": torch.randint(0, 4, (n, s, s)), "depth": depth}


class Trainer:
    def __init__(self, cfg):
        self.cfg = cfg
        self.model = MultiTaskNet(use_checkpoint=cfg["checkpoint"])
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=cfg["lr"], momentum=0.9)

    def train_step(self, batch):
        self.model.train()
        self.optimizer.zero_grad()
        out = self.model(batch["image"])
        names = list(self.cfg["tasks"])
        losses = {}
        for i, name in enumerate(names):
            loss = self.cfg["tasks"][name] * TASKS[name](out, batch)
            loss.backward(retain_graph=i < len(names) - 1)
            losses[name] = loss.item()
        self.optimizer.step()
        return losses

    @torch.no_grad()
    def validate(self, batch):
        self.model.eval()
        out = self.model(batch["image"])
        return {name: TASKS[name](out, batch).item() for name in self.cfg["tasks"]}

    def fit(self):
        for step in range(self.cfg["steps"]):
            losses = self.train_step(make_batch(self.cfg))
            if step % 4 == 3:
                val = self.validate(make_batch(self.cfg))
                print(f"step {step} train {losses} val {val}")


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer(CFG)
    trainer.fit()
