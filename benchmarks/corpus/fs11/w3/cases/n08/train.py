import torch
import torch.nn.functional as F

from net import ResidualMLP

CFG = {"device": "cpu", "amp_dtype": torch.bfloat16, "use_amp": True, "steps": 8, "bs": 32,
       "lr": 3e-3, "clip": 1.0}


class AmpTrainer:
    def __init__(self, model, cfg):
        self.model = model
        self.cfg = cfg
        self.opt = torch.optim.Adam(model.parameters(), lr=cfg["lr"])
        self.scaler = torch.amp.GradScaler(cfg["device"], enabled=cfg["use_amp"])

    def step(self, x, y):
        self.opt.zero_grad(set_to_none=True)
        with torch.autocast(device_type=self.cfg["device"], dtype=self.cfg["amp_dtype"],
                            enabled=self.cfg["use_amp"]):
            logits = self.model(x)
            loss = F.cross_entropy(logits, y)
        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.opt)
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.cfg["clip"])
        self.scaler.step(self.opt)
        self.scaler.update()
        return loss.detach().float()

    @torch.no_grad()
    def validate(self, x, y):
        self.model.eval()
        with torch.autocast(device_type=self.cfg["device"], dtype=self.cfg["amp_dtype"]):
            acc = (self.model(x).argmax(1) == y).float().mean()
        self.model.train()
        return acc.item()


def main():
    model = ResidualMLP()
    trainer = AmpTrainer(model, CFG)
    xv, yv = torch.randn(64, 32), torch.randint(0, 10, (64,))
    for it in range(CFG["steps"]):
        x = torch.randn(CFG["bs"], 32)
        y = (x[:, :10]).argmax(1)
        loss = trainer.step(x, y)
        if it % 4 == 3:
            print(f"it {it}  loss {loss.item():.4f}  val {trainer.validate(xv, yv):.3f}  "
                  f"scale {trainer.scaler.get_scale():.0f}")
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    model = main()
