import torch

from model import VSE

opt = {
    "img_dim": 64, "embed_size": 32, "word_dim": 16, "vocab_size": 100,
    "margin": 0.2, "learning_rate": 2e-3, "num_epochs": 2, "batch_size": 16,
    "val_step": 3, "log_step": 1,
}


def make_loader(n_batches, generator):
    data = []
    for _ in range(n_batches):
        images = torch.randn(opt["batch_size"], opt["img_dim"], generator=generator)
        captions = torch.randint(1, opt["vocab_size"], (opt["batch_size"], 7), generator=generator)
        data.append((images, captions))
    return data


def encode_data(model, data_loader):
    img_embs, cap_embs = [], []
    with torch.no_grad():
        for images, captions in data_loader:
            img_emb, cap_emb = model.forward_emb(images, captions)
            img_embs.append(img_emb)
            cap_embs.append(cap_emb)
    return torch.cat(img_embs), torch.cat(cap_embs)


def i2t_recall(img_embs, cap_embs, k=5):
    scores = img_embs @ cap_embs.t()
    topk = scores.topk(k, dim=1).indices
    return (topk == torch.arange(scores.size(0))[:, None]).any(dim=1).float().mean().item() * 100


def validate(opt, val_loader, model):
    model.val_start()
    img_embs, cap_embs = encode_data(model, val_loader)
    r5 = i2t_recall(img_embs, cap_embs)
    print(f"  validation: Image to text R@5 {r5:.1f}")
    return r5


def train(opt, train_loader, model, epoch, val_loader):
    model.train_start()
    for i, (images, captions) in enumerate(train_loader):
        loss = model.train_emb(images, captions)
        if model.Eiters % opt["log_step"] == 0:
            print(f"Epoch [{epoch}][{i}/{len(train_loader)}] Eit {model.Eiters} Loss {loss:.4f}")
        if model.Eiters % opt["val_step"] == 0:
            validate(opt, val_loader, model)


def main():
    torch.manual_seed(0)
    generator = torch.Generator().manual_seed(1)
    train_loader = make_loader(8, generator)
    val_loader = make_loader(2, generator)
    model = VSE(opt)
    for epoch in range(opt["num_epochs"]):
        train(opt, train_loader, model, epoch, val_loader)
        validate(opt, val_loader, model)
    return model


if __name__ == "__main__":
    model = main()
