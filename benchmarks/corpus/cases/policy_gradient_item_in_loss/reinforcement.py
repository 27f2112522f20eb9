import torch
import torch.nn.functional as F

from generator import CharRNN, char_tensor

torch.manual_seed(0)


def get_reward(smiles):
    return 1.0 + smiles.count("N") + 0.5 * smiles.count("O")


def policy_gradient(generator, n_batch=4, gamma=0.97):
    rl_loss = 0
    generator.optimizer.zero_grad()
    total_reward = 0
    for _ in range(n_batch):
        trajectory = generator.evaluate()
        reward = get_reward(trajectory[1:-1])
        trajectory_input = char_tensor(trajectory)
        discounted_reward = reward
        total_reward += reward
        hidden = generator.init_hidden()
        for p in range(len(trajectory) - 1):
            output, hidden = generator(trajectory_input[p], hidden)
            log_probs = F.log_softmax(output, dim=1)
            top_i = trajectory_input[p + 1]
            rl_loss -= log_probs[0, top_i].item() * discounted_reward
            discounted_reward = discounted_reward * gamma
    rl_loss = torch.tensor(rl_loss / n_batch, requires_grad=True)
    rl_loss.backward()
    generator.optimizer.step()
    return total_reward / n_batch, rl_loss.item()


generator = CharRNN()
before = generator.out.weight.detach().clone()
for it in range(5):
    reward, loss = policy_gradient(generator)
    print(f"iter {it}: mean reward {reward:.2f} rl_loss {loss:.3f}")
print("generator output grad:", generator.out.weight.grad)
print("generator weights changed:", not torch.equal(before, generator.out.weight))
