import torch
import torch.nn as nn

from trainer import MotTrainer

opt = {
    "lr": 1e-3, "num_epochs": 3, "reid_dim": 16, "nID": 20, "K": 6,
    "hm_weight": 1.0, "wh_weight": 0.1, "off_weight": 1.0,
    "heads": {"hm": 1, "wh": 4, "id": 16, "reg": 2},
}


class PoseResNetLite(nn.Module):
    def __init__(self, heads, head_conv=32):
        super().__init__()
        self.base = nn.Sequential(
            nn.Conv2d(3, 32, 3, 2, 1), nn.BatchNorm2d(32), nn.ReLU(),
            nn.Conv2d(32, 64, 3, 2, 1), nn.BatchNorm2d(64), nn.ReLU())
        for head, classes in heads.items():
            fc = nn.Sequential(nn.Conv2d(64, head_conv, 3, padding=1), nn.ReLU(),
                               nn.Conv2d(head_conv, classes, 1))
            if "hm" in head:
                fc[-1].bias.data.fill_(-2.19)
            self.__setattr__(head, fc)
        self.heads = heads

    def forward(self, x):
        x = self.base(x)
        return {head: self.__getattr__(head)(x) for head in self.heads}


def create_model(opt):
    return PoseResNetLite(opt["heads"])


def make_batch(generator, bs=4, size=32, K=6):
    out = size // 4
    hm = torch.zeros(bs, 1, out, out)
    ind = torch.randint(0, out * out, (bs, K), generator=generator)
    reg_mask = (torch.rand(bs, K, generator=generator) > 0.3).float()
    for b in range(bs):
        for k in range(K):
            if reg_mask[b, k] > 0:
                hm[b, 0, ind[b, k] // out, ind[b, k] % out] = 1.0
    ids = torch.randint(0, opt["nID"], (bs, K), generator=generator)
    return {"input": torch.randn(bs, 3, size, size, generator=generator), "hm": hm, "ind": ind,
            "reg_mask": reg_mask, "wh": torch.rand(bs, K, 4, generator=generator) * 8,
            "reg": torch.rand(bs, K, 2, generator=generator), "ids": ids}


torch.manual_seed(0)
model = create_model(opt)
trainer = MotTrainer(opt, model)
optimizer = torch.optim.Adam(model.parameters(), opt["lr"])
trainer.set_optimizer(optimizer)

generator = torch.Generator().manual_seed(1)
train_loader = [make_batch(generator) for _ in range(4)]
for epoch in range(1, opt["num_epochs"] + 1):
    log = trainer.train(epoch, train_loader)
    print(f"epoch: {epoch} |" + " | ".join(f"{k} {v:.4f}" for k, v in log.items()))
