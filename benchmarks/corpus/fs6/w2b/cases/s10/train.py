import torch
import torch.nn.functional as F

from axialnet import MedT_lite

torch.manual_seed(0)

config = {"img_size": 16, "num_classes": 2, "batch_size": 4, "lr": 1e-3, "weight_decay": 1e-5, "epochs": 2, "steps": 3}


def make_batch(cfg):
    imgs = torch.rand(cfg["batch_size"], 3, cfg["img_size"], cfg["img_size"])
    masks = (imgs.mean(1) > 0.5).long()
    return imgs, masks


model = MedT_lite(num_classes=config["num_classes"], img_size=config["img_size"])
optimizer = torch.optim.Adam(model.parameters(), lr=config["lr"], weight_decay=config["weight_decay"])

for epoch in range(config["epochs"]):
    model.train()
    epoch_loss = 0.0
    for step in range(config["steps"]):
        imgs, masks = make_batch(config)
        output = model(imgs)
        loss = F.cross_entropy(output, masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        epoch_loss += loss.item()
    print("epoch [{}/{}], loss:{:.4f}".format(epoch + 1, config["epochs"], epoch_loss / config["steps"]))
