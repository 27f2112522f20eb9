import torch
import torch.nn as nn

from model_def import TorchMoji

torch.manual_seed(0)


def freeze_layers(model, unfrozen_keys):
    for name, param in model.named_parameters():
        param.requires_grad = any(key in name for key in unfrozen_keys)


def fit_last(model, train_batches, epochs=2):
    freeze_layers(model, unfrozen_keys=["output_layer"])
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.Adam(params, lr=1e-3)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(epochs):
        for X, y in train_batches:
            model.train()
            optimizer.zero_grad()
            output = model(X)
            loss = criterion(output, y)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


model = TorchMoji(nb_classes=2)
train_batches = [(torch.randint(0, 100, (8, 12)), torch.randint(0, 2, (8,))) for _ in range(3)]
fit_last(model, train_batches)
