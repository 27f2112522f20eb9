import torch

from losses import ResampleLoss
from model import MultiLabelNet

NUM_CLASSES = 20


def main():
    torch.manual_seed(0)
    class_freq = torch.randint(5, 500, (NUM_CLASSES,)).float()
    criterion = ResampleLoss(class_freq, train_num=torch.tensor(1000.0))
    model = MultiLabelNet(NUM_CLASSES)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9)
    for epoch in range(2):
        for step in range(3):
            images = torch.randn(8, 3, 32, 32)
            labels = (torch.rand(8, NUM_CLASSES) < class_freq / 1000).long()
            scores = model(images)
            loss = criterion(scores, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
