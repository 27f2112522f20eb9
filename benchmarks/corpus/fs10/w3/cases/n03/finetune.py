import torch
import compat  # noqa: F401
import timm
from torch import nn

CONFIG = {
    "model_name": "resnet18",
    "num_classes": 5,
    "freeze_backbone": True,
    "epochs": 2,
    "steps_per_epoch": 4,
    "batch_size": 8,
    "lr": 1e-3,
}


def build_model(cfg):
    model = timm.create_model(cfg["model_name"], pretrained=False, num_classes=cfg["num_classes"])
    if cfg["freeze_backbone"]:
        for name, param in model.named_parameters():
            if not name.startswith(model.default_cfg["classifier"]):
                param.requires_grad_(False)
    return model


def set_train_mode(model, cfg):
    model.train()
    if cfg["freeze_backbone"]:
        for module in model.modules():
            if isinstance(module, nn.BatchNorm2d):
                module.eval()


@torch.no_grad()
def evaluate(model, images, targets):
    model.eval()
    logits = model(images)
    return (logits.argmax(-1) == targets).float().mean().item()


def main(cfg):
    torch.manual_seed(0)
    model = build_model(cfg)
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.SGD(trainable, lr=cfg["lr"], momentum=0.9)
    criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
    val_x = torch.randn(8, 3, 48, 48)
    val_y = torch.randint(0, cfg["num_classes"], (8,))
    for epoch in range(cfg["epochs"]):
        set_train_mode(model, cfg)
        for step in range(cfg["steps_per_epoch"]):
            x = torch.randn(cfg["batch_size"], 3, 48, 48)
            y = torch.randint(0, cfg["num_classes"], (cfg["batch_size"],))
            loss = criterion(model(x), y)
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            optimizer.step()
            if step == cfg["steps_per_epoch"] // 2:
                print(f"epoch {epoch} step {step} loss {loss.item():.4f} "
                      f"val_acc {evaluate(model, val_x, val_y):.3f}")
                set_train_mode(model, cfg)
    return model


if __name__ == "__main__":
    model = main(CONFIG)
