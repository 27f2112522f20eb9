import torch

from central_control import CentralControl

OBS, ACTIONS, BATCH = 8, 4, 32
N_ITER_UPDATE_TARGET = 10


def sample(buffer):
    idx = torch.randint(0, buffer[0].shape[0], (BATCH,))
    return tuple(t[idx] for t in buffer)


def main():
    torch.manual_seed(0)
    cc = CentralControl(OBS, ACTIONS, gamma=0.99)
    cc.set_optimizer(5e-4)
    buffer = (torch.randn(1000, OBS), torch.randint(0, ACTIONS, (1000,)), torch.randn(1000, OBS),
              torch.randn(1000), (torch.rand(1000) < 0.02).float())
    probe = torch.randn(64, OBS)
    for n_iter in range(1, 36):
        loss = cc.optimize(sample(buffer))
        if n_iter % N_ITER_UPDATE_TARGET == 0:
            cc.update_target()
            print(f"iter {n_iter}: loss {loss:.4f}  (target synced)")
    with torch.no_grad():
        lag = (cc.moving_nn(probe) - cc.target_nn(probe)).abs().max().item()
    print(f"iterations since last sync: {n_iter % N_ITER_UPDATE_TARGET}; "
          f"max |Q_moving - Q_target| = {lag:.6f}")


if __name__ == "__main__":
    main()
