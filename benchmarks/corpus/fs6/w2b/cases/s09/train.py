import torch

from model import create_model
from trainer import train_factory

torch.manual_seed(0)

opt = {
    "task": "mot",
    "num_classes": 1,
    "reid_dim": 16,
    "nID": 20,
    "head_conv": 32,
    "lr": 1e-3,
    "num_epochs": 2,
    "num_iters": 4,
    "hm_weight": 1.0,
    "wh_weight": 0.1,
    "off_weight": 1.0,
    "max_objs": 8,
}


def synthetic_loader(opt, n_batches, batch_size=2, size=32):
    out = size // 4
    for _ in range(n_batches):
        hm = torch.rand(batch_size, opt["num_classes"], out, out) * 0.9
        ind = torch.randint(0, out * out, (batch_size, opt["max_objs"]))
        for b in range(batch_size):
            hm.view(batch_size, -1)[b, ind[b, :3]] = 1.0
        reg_mask = torch.zeros(batch_size, opt["max_objs"], dtype=torch.uint8)
        reg_mask[:, :3] = 1
        yield {
            "input": torch.randn(batch_size, 3, size, size),
            "hm": hm,
            "ind": ind,
            "reg_mask": reg_mask,
            "wh": torch.rand(batch_size, opt["max_objs"], 4) * 8,
            "reg": torch.rand(batch_size, opt["max_objs"], 2),
            "ids": torch.randint(0, opt["nID"], (batch_size, opt["max_objs"])),
        }


model = create_model(opt)
Trainer = train_factory[opt["task"]]
trainer = Trainer(opt, model)
optimizer = torch.optim.Adam(model.parameters(), opt["lr"])
trainer.set_optimizer(optimizer)

for epoch in range(1, opt["num_epochs"] + 1):
    log = trainer.train(epoch, synthetic_loader(opt, opt["num_iters"]))
    print("epoch {} | ".format(epoch) + " | ".join("{} {:.4f}".format(k, v) for k, v in log.items()))
