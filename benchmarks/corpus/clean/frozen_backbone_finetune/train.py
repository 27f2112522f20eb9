import torch
import torch.nn.functional as F

from model import Backbone, Classifier


def load_pretrained():
    pretrained = Backbone()
    backbone = Backbone()
    backbone.load_state_dict(pretrained.state_dict())
    return backbone


def evaluate(model, batches):
    model.eval()
    correct = total = 0
    with torch.inference_mode():
        for x, y in batches:
            correct += (model(x).argmax(dim=1) == y).sum().item()
            total += y.numel()
    model.train()
    return correct / total


def main():
    torch.manual_seed(0)
    model = Classifier(load_pretrained(), n_classes=5)
    model.freeze_backbone()
    trainable = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(trainable, lr=1e-2, weight_decay=1e-4)
    before = model.backbone.stem[0].weight.clone()

    val = [(torch.randn(8, 3, 16, 16), torch.randint(0, 5, (8,))) for _ in range(2)]
    history = []
    model.train()
    for epoch in range(3):
        for it in range(4):
            x, y = torch.randn(8, 3, 16, 16), torch.randint(0, 5, (8,))
            loss = F.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            history.append(loss.item())
        acc = evaluate(model, val)
        print(f"epoch {epoch} mean loss {sum(history[-4:]) / 4:.4f} val acc {acc:.2f}")
    print("backbone unchanged:", torch.equal(before, model.backbone.stem[0].weight))
    print("trainable params:", sum(p.numel() for p in trainable))


if __name__ == "__main__":
    main()
