import torch
from torch.utils.data import DataLoader, TensorDataset

from engine import AmpTrainer
from model import SmallCNN

EPOCHS = 3


def synthetic_images(n, protos):
    labels = torch.randint(0, protos.size(0), (n,))
    images = protos[labels] + 0.5 * torch.randn(n, 3, 16, 16)
    return TensorDataset(images, labels)


if __name__ == "__main__":
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    protos = torch.randn(10, 3, 16, 16)
    train_loader = DataLoader(synthetic_images(256, protos), batch_size=32, shuffle=True)
    val_loader = DataLoader(synthetic_images(64, protos), batch_size=32)

    model = SmallCNN()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=0.05, total_steps=EPOCHS * len(train_loader))
    trainer = AmpTrainer(model, optimizer, scheduler, device)

    for epoch in range(EPOCHS):
        stats = trainer.train_one_epoch(train_loader)
        acc = trainer.evaluate(val_loader)
        loss, norm, scale = stats[-1]
        print(f"epoch {epoch} loss {loss:.3f} grad_norm {norm:.3f} scale {scale:.0f} val_acc {acc:.3f}")
