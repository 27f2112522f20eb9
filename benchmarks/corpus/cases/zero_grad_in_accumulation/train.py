import torch
import torch.nn as nn
import torch.nn.functional as F


class Projector(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.proj = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Linear(dim, dim))

    def forward(self, feats):
        return self.proj(feats)


class StudentDecoder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 64), nn.ReLU(), nn.Linear(64, dim))

    def forward(self, x):
        return self.net(x)


def loss_function(teacher_feats, student_feats):
    return (1 - F.cosine_similarity(teacher_feats, student_feats, dim=-1)).mean()


def train(encoder, proj_layer, decoder, batches, accumulation_steps=4):
    optimizer_proj = torch.optim.Adam(proj_layer.parameters(), lr=1e-3)
    optimizer_distill = torch.optim.Adam(decoder.parameters(), lr=1e-3)
    last_grads = []
    for i, img in enumerate(batches):
        with torch.no_grad():
            teacher = encoder(img)
        student = decoder(proj_layer(teacher))
        loss = loss_function(teacher, student) / accumulation_steps

        optimizer_proj.zero_grad()
        optimizer_distill.zero_grad()
        loss.backward()
        if (i + 1) % accumulation_steps == 0:
            last_grads.append(decoder.net[0].weight.grad.clone())
            optimizer_proj.step()
            optimizer_distill.step()
    return last_grads


if __name__ == "__main__":
    torch.manual_seed(0)
    encoder = nn.Linear(16, 32)
    proj, dec = Projector(), StudentDecoder()
    data = [torch.randn(8, 16) for _ in range(8)]

    # reference: what the accumulated gradient over the first window should be
    ref = StudentDecoder()
    ref.load_state_dict(dec.state_dict())
    ref_proj = Projector()
    ref_proj.load_state_dict(proj.state_dict())
    ref_grad = torch.zeros_like(ref.net[0].weight)
    for img in data[:4]:
        t = encoder(img).detach()
        ref_loss = loss_function(t, ref(ref_proj(t))) / 4
        ref_grad += torch.autograd.grad(ref_loss, ref.net[0].weight)[0]

    grads = train(encoder, proj, dec, data)
    ratio = grads[0].norm() / ref_grad.norm()
    print(f"grad used in first update / accumulated grad over 4 micro-batches: {ratio:.3f}")
