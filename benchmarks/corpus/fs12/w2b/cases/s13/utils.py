import torch


def get_batch(T, batch_size, generator=None):
    values = torch.rand(T, batch_size, requires_grad=False, generator=generator)
    indices = torch.zeros_like(values)
    half = int(T / 2)
    for i in range(batch_size):
        half_1 = torch.randint(0, half, (1,), generator=generator).item()
        half_2 = torch.randint(half, T, (1,), generator=generator).item()
        indices[half_1, i] = 1
        indices[half_2, i] = 1
    data = torch.stack((values, indices), dim=-1)
    targets = torch.mul(values, indices).sum(dim=0)
    return data, targets


def test(model, objective, T, batch_size, generator):
    model.eval()
    with torch.no_grad():
        data, label = get_batch(T, batch_size, generator)
        out = model(data)
        loss = objective(out, label.unsqueeze(1))
    return loss.item()
