import torch
import torch.nn.functional as F

from model import Classifier
from modifiers import ScheduledModifierManager, TrainableParamsModifier
from recipe import RECIPE


def build_manager(model, recipe):
    mods = []
    for spec in recipe["modifiers"]:
        if spec["type"] == "TrainableParamsModifier":
            start_step = spec["start_epoch"] * recipe["steps_per_epoch"]
            mods.append(TrainableParamsModifier(model, spec["params"], spec["trainable"], start_step))
    return ScheduledModifierManager(mods)


def main():
    torch.manual_seed(0)
    model = Classifier()
    optimizer = torch.optim.SGD(model.parameters(), lr=RECIPE["lr"], momentum=0.9)
    manager = build_manager(model, RECIPE)
    optimizer = manager.attach(optimizer)

    data = [(torch.randn(16, 32), torch.randint(0, 4, (16,)))
            for _ in range(RECIPE["steps_per_epoch"])]
    for epoch in range(RECIPE["epochs"]):
        model.train()
        for x, y in data:
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
        print(f"epoch {epoch}: loss {loss.item():.4f} trainable params {trainable}")
    return model


if __name__ == "__main__":
    model = main()
