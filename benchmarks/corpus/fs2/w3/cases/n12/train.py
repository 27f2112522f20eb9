import torch
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.optim.lr_scheduler import OneCycleLR
from torch.utils.data import DataLoader, TensorDataset

from model import SmallConvNet

CONFIG = {"lr": 3e-2, "num_epochs": 2, "seed": 42, "batch_size": 16, "image_size": 24,
          "num_classes": 4, "eval_every": 4, "max_grad_norm": 1.0}


def make_dataset(n, cfg, g):
    labels = torch.randint(0, cfg["num_classes"], (n,), generator=g)
    images = torch.rand(n, 3, cfg["image_size"], cfg["image_size"], generator=g)
    images[torch.arange(n), labels % 3] += 0.3 * (labels.view(-1, 1, 1) + 1).float()
    return TensorDataset(images, labels)


def evaluate(model, eval_dataloader, accelerator, mean, std):
    model.eval()
    accurate = num_elems = 0
    for images, labels in eval_dataloader:
        with torch.no_grad():
            outputs = model((images - mean) / std)
        predictions, references = accelerator.gather_for_metrics((outputs.argmax(dim=-1), labels))
        accurate += (predictions == references).long().sum().item()
        num_elems += references.shape[0]
    model.train()
    return accurate / num_elems


def training_function(config):
    accelerator = Accelerator(cpu=True)
    set_seed(config["seed"])
    g = torch.Generator().manual_seed(config["seed"])
    train_dataloader = DataLoader(make_dataset(128, config, g), shuffle=True, batch_size=config["batch_size"])
    eval_dataloader = DataLoader(make_dataset(48, config, g), shuffle=False, batch_size=config["batch_size"])

    model = SmallConvNet(config["num_classes"]).to(accelerator.device)
    mean = torch.tensor([0.5, 0.5, 0.5])[None, :, None, None].to(accelerator.device)
    std = torch.tensor([0.3, 0.3, 0.3])[None, :, None, None].to(accelerator.device)
    optimizer = torch.optim.SGD(model.parameters(), lr=config["lr"] / 25, momentum=0.9)
    lr_scheduler = OneCycleLR(optimizer=optimizer, max_lr=config["lr"], epochs=config["num_epochs"],
                              steps_per_epoch=len(train_dataloader))
    model, optimizer, train_dataloader, eval_dataloader, lr_scheduler = accelerator.prepare(
        model, optimizer, train_dataloader, eval_dataloader, lr_scheduler)

    global_step = 0
    for epoch in range(config["num_epochs"]):
        model.train()
        for images, labels in train_dataloader:
            outputs = model((images - mean) / std)
            loss = F.cross_entropy(outputs, labels)
            accelerator.backward(loss)
            accelerator.clip_grad_norm_(model.parameters(), config["max_grad_norm"])
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
            global_step += 1
            if global_step % config["eval_every"] == 0:
                acc = evaluate(model, eval_dataloader, accelerator, mean, std)
                accelerator.print(f"epoch {epoch} step {global_step}: loss {loss.item():.4f} "
                                  f"eval acc {100 * acc:.2f}")


if __name__ == "__main__":
    training_function(CONFIG)
