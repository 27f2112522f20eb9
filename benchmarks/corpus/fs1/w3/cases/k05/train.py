import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

from model import FeatureExtractor

num_classes = 5
batch_size = 16
num_epochs = 3


def train_model(model, dataloaders, criterion, optimizer, num_epochs):
    history = []
    for epoch in range(num_epochs):
        for phase in ["train", "val"]:
            if phase == "train":
                model.train()
            else:
                model.eval()
            running_loss, running_corrects = 0.0, 0
            for inputs, labels in dataloaders[phase]:
                optimizer.zero_grad()
                with torch.set_grad_enabled(phase == "train"):
                    outputs = model(inputs)
                    loss = criterion(outputs, labels)
                    preds = outputs.argmax(dim=1)
                    if phase == "train":
                        loss.backward()
                        optimizer.step()
                running_loss += loss.item() * inputs.size(0)
                running_corrects += (preds == labels).sum().item()
            n = len(dataloaders[phase].dataset)
            print(f"epoch {epoch} {phase} loss {running_loss / n:.4f} acc {running_corrects / n:.3f}")
            if phase == "val":
                history.append(running_corrects / n)
    return model, history


if __name__ == "__main__":
    torch.manual_seed(0)
    images = torch.randn(96, 3, 32, 32)
    labels = torch.randint(0, num_classes, (96,))
    dataloaders = {
        "train": DataLoader(TensorDataset(images[:64], labels[:64]), batch_size=batch_size, shuffle=True),
        "val": DataLoader(TensorDataset(images[64:], labels[64:]), batch_size=batch_size),
    }
    model = FeatureExtractor(num_classes, feature_extract=True)

    params_to_update = []
    for name, param in model.named_parameters():
        if param.requires_grad:
            params_to_update.append(param)
            print("\t", name)
    optimizer = torch.optim.SGD(params_to_update, lr=0.01, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    model, hist = train_model(model, dataloaders, criterion, optimizer, num_epochs)
