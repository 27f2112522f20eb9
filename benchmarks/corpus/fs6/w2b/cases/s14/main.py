import compat  # noqa: F401

import timm
import torch
import torch.nn as nn

from attention import convert_to_attention

torch.manual_seed(0)

args = {
    "model": "resnet10t",
    "num_classes": 10,
    "img_size": 32,
    "batch_size": 2,
    "lr": 0.01,
    "momentum": 0.9,
    "weight_decay": 1e-4,
    "epochs": 2,
    "steps": 2,
    "attention_stages": ("layer3", "layer4"),
}


def get_loader(args):
    for _ in range(args["steps"]):
        x = torch.randn(args["batch_size"], 3, args["img_size"], args["img_size"])
        y = torch.randint(0, args["num_classes"], (args["batch_size"],))
        yield x, y


def train(model, optimizer, criterion, args, epoch):
    model.train()
    total = 0.0
    for data, target in get_loader(args):
        output = model(data)
        loss = criterion(output, target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item()
    print("[Epoch: {0:4d}], Loss: {1:.3f}".format(epoch, total / args["steps"]))


model = timm.create_model(args["model"], pretrained=False, num_classes=args["num_classes"])
model = convert_to_attention(model, stages=args["attention_stages"])
optimizer = torch.optim.SGD(model.parameters(), lr=args["lr"], momentum=args["momentum"],
                            weight_decay=args["weight_decay"])
criterion = nn.CrossEntropyLoss()

for epoch in range(1, args["epochs"] + 1):
    train(model, optimizer, criterion, args, epoch)
