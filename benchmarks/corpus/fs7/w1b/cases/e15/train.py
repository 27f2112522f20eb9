import torch
from torch import nn

import configs
from model import SCNN


class LaneLoss(nn.Module):
    def __init__(self, existence_weight=0.1, ignore_index=255):
        super().__init__()
        self.existence_weight = existence_weight
        self.seg = nn.CrossEntropyLoss(weight=torch.tensor([0.4, 1, 1, 1, 1]),
                                       ignore_index=ignore_index)
        self.exist = nn.BCEWithLogitsLoss()

    def forward(self, outputs, labels, lane_existence):
        seg_loss = self.seg(outputs["out"], labels)
        exist_loss = self.exist(outputs["lane"], lane_existence)
        return seg_loss + self.existence_weight * exist_loss


def fake_batch(batch_size, input_size):
    images = torch.randn(batch_size, 3, *input_size)
    labels = torch.randint(0, 5, (batch_size, *input_size))
    existence = torch.randint(0, 2, (batch_size, 4)).float()
    return images, labels, existence


def train_schedule(net, criterion, optimizer, cfg):
    net.train()
    for epoch in range(cfg["epochs"]):
        running_loss = 0.0
        for it in range(cfg["iters"]):
            inputs, labels, existence = fake_batch(cfg["batch_size"], cfg["input_size"])
            optimizer.zero_grad()
            outputs = net(inputs)
            loss = criterion(outputs, labels, existence)
            loss.backward()
            optimizer.step()
            running_loss += loss.item()
            print(f"[{epoch + 1}, {it + 1}] loss: {loss.item():.4f}")
    return running_loss


def main():
    torch.manual_seed(7)
    net = SCNN(configs.model, configs.train["input_size"])
    criterion = LaneLoss(existence_weight=configs.train["exist_weight"])
    optimizer = torch.optim.SGD(net.parameters(), lr=configs.train["lr"],
                                momentum=configs.train["momentum"],
                                weight_decay=configs.train["weight_decay"])
    train_schedule(net, criterion, optimizer, configs.train)


if __name__ == "__main__":
    main()
