import compat  # noqa: F401
import torch
import torch.nn as nn
import timm

SCHEDULE = {
    "epochs": 4,
    "steps_per_epoch": 2,
    "unfreeze": {2: ["layer4"], 3: ["layer3"]},
    "head_lr": 1e-3,
    "unfreeze_lr": 1e-4,
}


def set_trainable(module, flag):
    for p in module.parameters():
        p.requires_grad = flag


def freeze_bn_stats(model):
    for m in model.modules():
        if isinstance(m, nn.modules.batchnorm._BatchNorm):
            if not any(p.requires_grad for p in m.parameters()):
                m.eval()


class FineTuner:
    def __init__(self, num_classes=4):
        self.model = timm.create_model("resnet10t", pretrained=False, num_classes=num_classes)
        set_trainable(self.model, False)
        set_trainable(self.model.get_classifier(), True)
        self.optimizer = torch.optim.AdamW(
            [p for p in self.model.parameters() if p.requires_grad], lr=SCHEDULE["head_lr"]
        )
        self.criterion = nn.CrossEntropyLoss(label_smoothing=0.1)

    def unfreeze(self, names):
        new_params = []
        for name in names:
            block = getattr(self.model, name)
            set_trainable(block, True)
            new_params.extend(block.parameters())
        self.optimizer.add_param_group({"params": new_params, "lr": SCHEDULE["unfreeze_lr"]})

    def train_epoch(self, epoch):
        if epoch in SCHEDULE["unfreeze"]:
            self.unfreeze(SCHEDULE["unfreeze"][epoch])
        self.model.train()
        freeze_bn_stats(self.model)
        for _ in range(SCHEDULE["steps_per_epoch"]):
            x = torch.randn(8, 3, 32, 32)
            y = torch.randint(0, 4, (8,))
            loss = self.criterion(self.model(x), y)
            self.optimizer.zero_grad(set_to_none=True)
            loss.backward()
            self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def evaluate(self):
        self.model.eval()
        x = torch.randn(16, 3, 32, 32)
        y = torch.randint(0, 4, (16,))
        return (self.model(x).argmax(1) == y).float().mean().item()


def main():
    torch.manual_seed(0)
    tuner = FineTuner()
    for epoch in range(SCHEDULE["epochs"]):
        loss = tuner.train_epoch(epoch)
        acc = tuner.evaluate()
        n_train = sum(p.numel() for p in tuner.model.parameters() if p.requires_grad)
        print(f"epoch {epoch} loss={loss:.4f} acc={acc:.3f} trainable={n_train}")
    return tuner


if __name__ == "__main__":
    tuner = main()
