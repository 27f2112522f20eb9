import torch
import torch.nn.functional as F
from accelerate import Accelerator
from accelerate.utils import set_seed
from torch.utils.data import DataLoader, TensorDataset

from config import CFG
from models import Denoiser, Net, ReferenceNet
from reference_control import ReferenceAttentionControl


def make_dataset(cfg):
    n, s = cfg["num_samples"], cfg["image_size"]
    ref = torch.rand(n, 3, s, s) * 2 - 1
    target = (ref + 0.1 * torch.randn_like(ref)).clamp(-1, 1)
    return TensorDataset(ref, target)


def add_noise(x0, noise, t, num_timesteps):
    betas = torch.linspace(1e-4, 0.02, num_timesteps)
    alpha_bar = torch.cumprod(1 - betas, dim=0)[t].view(-1, 1, 1, 1)
    return alpha_bar.sqrt() * x0 + (1 - alpha_bar).sqrt() * noise


def main(cfg=CFG):
    accelerator = Accelerator(gradient_accumulation_steps=cfg["gradient_accumulation_steps"], cpu=True)
    set_seed(cfg["seed"])
    reference_net = ReferenceNet(cfg["patch"], cfg["dim"], cfg["heads"], cfg["depth"])
    denoiser = Denoiser(cfg["image_size"], cfg["patch"], cfg["dim"], cfg["heads"], cfg["depth"])
    net = Net(reference_net, denoiser)
    optimizer = torch.optim.AdamW(net.parameters(), lr=cfg["learning_rate"])
    loader = DataLoader(make_dataset(cfg), batch_size=cfg["train_batch_size"], shuffle=True)
    net, optimizer, loader = accelerator.prepare(net, optimizer, loader)
    control = ReferenceAttentionControl(net.reference_net, net.denoiser)

    global_step = 0
    net.train()
    while global_step < cfg["max_train_steps"]:
        for ref, target in loader:
            with accelerator.accumulate(net):
                noise = torch.randn_like(target)
                t = torch.randint(0, cfg["num_train_timesteps"], (target.shape[0],))
                noisy = add_noise(target, noise, t, cfg["num_train_timesteps"])
                pred = net(noisy, t, ref)
                loss = F.mse_loss(pred, noise)
                accelerator.backward(loss)
                if accelerator.sync_gradients:
                    accelerator.clip_grad_norm_(net.parameters(), 1.0)
                optimizer.step()
                optimizer.zero_grad()
            if accelerator.sync_gradients:
                global_step += 1
                accelerator.print(f"step {global_step} loss {loss.item():.4f}")
                control.clear()
            if global_step >= cfg["max_train_steps"]:
                break


if __name__ == "__main__":
    main()
