import torch
import torch.nn.functional as F

from egnn import ConformerGenerator, fully_connected_edges

torch.manual_seed(0)

N_ATOMS, N_MOLS, N_TYPES = 6, 4, 5
model = ConformerGenerator(n_atom_types=N_TYPES, hidden=32, n_layers=3)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
edges = fully_connected_edges(N_ATOMS, N_MOLS)


def sample_batch():
    atom_types = torch.randint(0, N_TYPES, (N_MOLS * N_ATOMS,))
    target_coords = torch.randn(N_MOLS * N_ATOMS, 3)
    energy = torch.randn(N_MOLS, 1)
    return atom_types, target_coords, energy


for step in range(5):
    atom_types, target_coords, energy = sample_batch()
    coords = torch.zeros(N_MOLS * N_ATOMS, 3)
    atom_energy, pred_coords = model(atom_types, coords, edges)
    mol_energy = atom_energy.view(N_MOLS, N_ATOMS).sum(dim=1, keepdim=True)
    loss = F.mse_loss(pred_coords, target_coords) + 0.1 * F.mse_loss(mol_energy, energy)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"step {step}: loss {loss.item():.4f}")
