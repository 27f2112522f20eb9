import torch

from net import make_model

settings = {
    "device": "cpu",
    "amp_dtype": torch.float16,
    "use_amp": True,
    "batch_size": 32,
    "in_size": 64,
    "out_size": 16,
    "epochs": 3,
    "batches": 4,
    "max_norm": 0.5,
}


def get_data(seed):
    g = torch.Generator().manual_seed(seed)
    data = [torch.randn(settings["batch_size"], settings["in_size"], generator=g) for _ in range(settings["batches"])]
    targets = [torch.randn(settings["batch_size"], settings["out_size"], generator=g) for _ in range(settings["batches"])]
    return data, targets


def train_one_epoch(net, opt, scaler, loss_fn, data, targets):
    for x, y in zip(data, targets):
        with torch.autocast(device_type=settings["device"], dtype=settings["amp_dtype"],
                            enabled=settings["use_amp"]):
            output = net(x)
            loss = loss_fn(output.float(), y)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        torch.nn.utils.clip_grad_norm_(net.parameters(), max_norm=settings["max_norm"])
        scaler.step(opt)
        scaler.update()
        opt.zero_grad(set_to_none=True)
    return loss.item()


def main():
    torch.manual_seed(0)
    net = make_model(settings["in_size"], settings["out_size"])
    opt = torch.optim.SGD(net.parameters(), lr=0.01)
    scaler = torch.amp.GradScaler(settings["device"], init_scale=2.0 ** 12, enabled=settings["use_amp"])
    loss_fn = torch.nn.MSELoss()
    data, targets = get_data(1)
    for epoch in range(settings["epochs"]):
        last = train_one_epoch(net, opt, scaler, loss_fn, data, targets)
        print(f"epoch {epoch} loss {last:.4f} scale {scaler.get_scale():.0f}")

    checkpoint = {"model": net.state_dict(), "optimizer": opt.state_dict(), "scaler": scaler.state_dict()}
    return net, checkpoint


if __name__ == "__main__":
    net, checkpoint = main()
