import compat  # noqa: F401
import timm
import torch
from timm.data import Mixup
from timm.loss import SoftTargetCrossEntropy
from timm.utils import ModelEmaV3

ARGS = {"model": "vit_tiny_patch16_224", "img_size": 32, "patch_size": 8, "depth": 2,
        "num_classes": 5, "batch_size": 8, "steps": 6, "eval_every": 3, "lr": 1e-3,
        "mixup": 0.8, "cutmix": 1.0, "smoothing": 0.1, "ema_decay": 0.9}


def create(args):
    model = timm.create_model(args["model"], pretrained=False, num_classes=args["num_classes"],
                              img_size=args["img_size"], patch_size=args["patch_size"],
                              depth=args["depth"])
    ema = ModelEmaV3(model, decay=args["ema_decay"])
    return model, ema


@torch.no_grad()
def evaluate(model, data):
    was_training = model.training
    model.eval()
    correct = 0
    for x, y in data:
        correct += (model(x).argmax(-1) == y).sum().item()
    model.train(was_training)
    return correct / sum(y.numel() for _, y in data)


def main(args):
    model, ema = create(args)
    mixup_fn = Mixup(mixup_alpha=args["mixup"], cutmix_alpha=args["cutmix"],
                     label_smoothing=args["smoothing"], num_classes=args["num_classes"])
    criterion = SoftTargetCrossEntropy()
    opt = torch.optim.AdamW(model.parameters(), lr=args["lr"], weight_decay=0.05)
    s = args["img_size"]
    val = [(torch.randn(8, 3, s, s), torch.randint(0, args["num_classes"], (8,)))]
    model.train()
    for step in range(1, args["steps"] + 1):
        x = torch.randn(args["batch_size"], 3, s, s)
        y = torch.randint(0, args["num_classes"], (args["batch_size"],))
        x, y_soft = mixup_fn(x, y)
        loss = criterion(model(x), y_soft)
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model, step=step)
        if step % args["eval_every"] == 0:
            print(f"step {step}  loss {loss.item():.4f}  acc {evaluate(model, val):.3f}  "
                  f"ema_acc {evaluate(ema.module, val):.3f}")
    return model, ema


if __name__ == "__main__":
    torch.manual_seed(0)
    model, ema = main(ARGS)
